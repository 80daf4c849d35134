//! `wildt game …` and `wildt check`: the organiser's commands. [IO: database,
//! prints]

use std::path::Path;
use std::process::ExitCode;

use serde_json::{Value, json};
use shakmaty::Color;
use wildt::clock::ClockState;
use wildt::command::Command;
use wildt::deadlines::TimedGame;
use wildt::decide::game_address;
use wildt::game::{MoveNumberText, PgnHeaders, board_diagram, pgn, record_text, status_line};
use wildt::handle::{Handled, Mode, Source, handle_message};
use wildt::i18n::Lang;
use wildt::organise::{self, Mailing, NewGame};
use wildt::referee::Verdict;
use wildt::store::{Store, StoredGame, now_secs};

use crate::ConfigArgs;

#[derive(clap::Subcommand)]
pub enum GameCommand {
    /// Create a game; prints each player's game address.
    New {
        /// White's address, with a name if you like: `Anna Smith <anna@x.example>`.
        #[arg(long)]
        white: String,
        /// Black's address, with a name if you like.
        #[arg(long)]
        black: String,
        /// Start from this position instead of the initial one.
        #[arg(long)]
        fen: Option<String>,
        #[arg(long)]
        event: Option<String>,
        /// Time control: `10/50` (10 moves in 50 days), `30+3` (30 days plus
        /// 3 per move) or `none`; default `[clock] default_time`.
        #[arg(long)]
        time: Option<String>,
        /// The language White reads wildt's mail in (en, de, fr, es, it, nl,
        /// pt, pl, cs, ru; or its name); kept for the address.
        #[arg(long)]
        white_lang: Option<Lang>,
        /// The language Black reads wildt's mail in.
        #[arg(long)]
        black_lang: Option<Lang>,
        /// Do not mail the players their game addresses (the organiser passes
        /// them on, e.g. for a postcard game).
        #[arg(long)]
        no_mail: bool,
        #[arg(long)]
        json: bool,
    },
    /// List the games.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Show a game: board, record, whose move, and any mail to its players
    /// that failed for good; with `--as SEAT --conditionals`, that seat's
    /// stored conditional moves instead (for the organiser only: never shown
    /// to the opponent).
    Show {
        id: i64,
        #[arg(long)]
        json: bool,
        /// Show the stored conditional moves of the seat given with `--as`.
        #[arg(long, requires = "seat")]
        conditionals: bool,
        #[arg(long = "as", value_parser = ["white", "black"], requires = "conditionals")]
        seat: Option<String>,
    },
    /// Record a move (or resign, offer-draw, accept-draw, decline-draw,
    /// claim-draw) by hand, as for a postcard game.
    Move {
        id: i64,
        /// An ICCF move (5254) or one of the commands above.
        #[arg(value_name = "MOVE")]
        mv: String,
        #[arg(long = "as", value_parser = ["white", "black"])]
        seat: String,
        /// When the move reached the organiser (a postcard's postmark):
        /// `2026-12-20` or an RFC 3339 instant; default now.
        #[arg(long)]
        at: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Export the game as PGN.
    Pgn { id: i64 },
    /// Give a player leave (both days included, `2026-12-20` or
    /// `20.12.2026`); refused beyond the yearly allowance or over another
    /// leave. Both players are mailed, and the opponent in each other
    /// unfinished game of the player (the leave stops all their clocks).
    Leave {
        id: i64,
        #[arg(long = "as", value_parser = ["white", "black"])]
        seat: String,
        #[arg(long)]
        from: String,
        #[arg(long)]
        to: String,
    },
    /// A ruling on the clock: give (or, negative, take) days. Both players
    /// are mailed.
    Clock {
        id: i64,
        #[arg(long = "as", value_parser = ["white", "black"])]
        seat: String,
        #[arg(long, allow_negative_numbers = true)]
        add_days: i64,
    },
    /// Decide an unfinished game (termination: adjudication). Both players
    /// are mailed the result and the reason.
    Adjudicate {
        id: i64,
        #[arg(value_parser = ["1-0", "0-1", "1/2-1/2"])]
        result: String,
        #[arg(long)]
        reason: String,
    },
    /// Give a player a new secret game address; the old one stops working.
    /// The player is mailed the new address.
    Rekey {
        id: i64,
        #[arg(long = "as", value_parser = ["white", "black"])]
        seat: String,
        /// Do not mail the player the new address (the organiser passes it on).
        #[arg(long)]
        no_mail: bool,
        #[arg(long)]
        json: bool,
    },
}

#[derive(clap::Subcommand)]
pub enum PlayerCommand {
    /// Set a player's language; it applies to all their games and overrides
    /// what they chose by mail or wildt guessed.
    Set {
        /// The player's registered address.
        email: String,
        /// en, de, fr, es, it, nl, pt, pl, cs, ru (or the language's name).
        #[arg(long)]
        lang: Lang,
    },
}

/// `wildt player …`.
pub async fn player(config: &ConfigArgs, command: PlayerCommand) -> anyhow::Result<ExitCode> {
    let (_, store) = open(config).await?;
    match command {
        PlayerCommand::Set { email, lang } => {
            organise::set_player_lang(&store, &email, lang).await?;
            outln!(
                "{} reads wildt's mail in {} ({lang}).",
                email.trim().to_ascii_lowercase(),
                lang.native_name()
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A game with its clocks, as `game show` and `game list` print it.
struct Shown {
    game: StoredGame,
    clock: Option<ClockState>,
}

fn clock_json(c: &ClockState) -> Value {
    let side = |p: &wildt::clock::PlayerClock| {
        json!({
            "days_used": p.days_used,
            "days_left": p.days_left,
            "on_leave": p.on_leave,
            "leave_days_left": p.leave_days_left,
        })
    };
    json!({
        "control": c.control.to_string(),
        "white": side(&c.clocks.white),
        "black": side(&c.clocks.black),
    })
}

fn shown_json(s: &Shown, referee: &wildt::config::RefereeConfig) -> Value {
    let mut v = game_json(&s.game, referee);
    if let Some(c) = &s.clock {
        v["clock"] = clock_json(c);
    }
    v
}

fn game_json(g: &StoredGame, referee: &wildt::config::RefereeConfig) -> Value {
    let r = &g.view.record;
    let moves: Vec<Value> = r
        .plies()
        .iter()
        .enumerate()
        .map(|(i, p)| {
            json!({
                "ply": i + 1,
                "number": MoveNumberText(r.number_of_ply(i)).to_string(),
                "iccf": p.iccf.to_string(),
                "san": p.san.as_str(),
            })
        })
        .collect();
    json!({
        "id": g.view.id,
        "event": g.event,
        "white": {"email": g.view.white.email, "name": g.view.white.name, "address": game_address(referee, g.view.id, &g.view.white.key), "lang": g.view.white.lang.code()},
        "black": {"email": g.view.black.email, "name": g.view.black.name, "address": game_address(referee, g.view.id, &g.view.black.key), "lang": g.view.black.lang.code()},
        "start_fen": r.start_fen(),
        "fen": wildt::game::fen_of(r.position()),
        "status": if r.is_over() { "finished" } else { "active" },
        "result": r.end.map_or("*", |e| e.result_text()),
        "termination": r.end.map(|e| e.termination.as_str()),
        "to_move": if r.is_over() { None } else { Some(if r.turn() == Color::White { "white" } else { "black" }) },
        "draw_offer": r.draw_offer.map(|c| if c == Color::White { "white" } else { "black" }),
        "moves": moves,
    })
}

/// `Anna Smith <anna@x.example>`, or the address alone.
fn who(p: &wildt::decide::Player) -> String {
    match &p.name {
        Some(name) => format!("{name} <{}>", p.email),
        None => p.email.clone(),
    }
}

fn print_json(v: &Value) -> anyhow::Result<()> {
    outln!("{}", serde_json::to_string_pretty(v)?)?;
    Ok(())
}

async fn open(config: &ConfigArgs) -> anyhow::Result<(wildt::config::Config, Store)> {
    let config = config.load()?;
    let store = Store::open(&config.database_url).await?;
    Ok((config, store))
}

fn mailing(no_mail: bool) -> Mailing {
    if no_mail {
        Mailing::NoMail
    } else {
        Mailing::Mail
    }
}

/// The game `id` with its clocks at now (`None` without a time control).
async fn shown(store: &Store, rules: &wildt::clock::ClockRules, id: i64) -> anyhow::Result<Shown> {
    let timed = TimedGame::load(&mut *store.pool().acquire().await?, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("game {id} does not exist"))?;
    let clock = timed
        .clock
        .control
        .is_limited()
        .then(|| timed.state(rules, now_secs()));
    Ok(Shown {
        game: timed.game,
        clock,
    })
}

/// A date (`2026-12-20`, its start in UTC) or an RFC 3339 instant.
fn instant_arg(text: &str) -> anyhow::Result<i64> {
    if let Ok(d) = text.parse::<wildt::clock::Date>() {
        return Ok(d.start());
    }
    Ok(wildt::now::parse_rfc3339(text)?)
}

fn seat_of(seat: &str) -> Color {
    if seat == "white" {
        Color::White
    } else {
        Color::Black
    }
}

/// Why a leave was refused, for the organiser.
fn refusal_text(why: &wildt::clock::LeaveRefusal) -> String {
    use wildt::clock::LeaveRefusal as R;
    match why {
        R::EndsBeforeStart { from, to } => format!("it ends ({to}) before it starts ({from})"),
        R::StartsInThePast { from, today } => {
            format!("it starts ({from}) before today ({today})")
        }
        R::Overlaps { existing } => format!(
            "it overlaps the leave from {} to {}",
            existing.from, existing.to
        ),
        R::ExceedsAllowance {
            year,
            asked,
            remaining,
            allowance,
        } => format!(
            "it takes {asked} days of {year}, but only {remaining} of the {allowance} days a year are left"
        ),
    }
}

async fn get(store: &Store, id: i64) -> anyhow::Result<StoredGame> {
    store
        .game(id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("game {id} does not exist"))
}

pub async fn run(config: &ConfigArgs, cmd: GameCommand) -> anyhow::Result<ExitCode> {
    let (config, store) = open(config).await?;
    let referee = &config.referee;
    let code = match cmd {
        GameCommand::New {
            white,
            black,
            fen,
            event,
            time,
            white_lang,
            black_lang,
            no_mail,
            json,
        } => {
            let time = match time {
                Some(t) => t.parse().map_err(|e| anyhow::anyhow!("--time {t}: {e}"))?,
                None => config.clock.default_time,
            };
            let g = organise::create_game(
                &store,
                referee,
                config.limits.games_per_player,
                NewGame {
                    white: &white,
                    black: &black,
                    fen: fen.as_deref(),
                    event: event.as_deref(),
                    time,
                    white_lang,
                    black_lang,
                },
                mailing(no_mail),
            )
            .await?;
            let v = game_json(&g, referee);
            if json {
                print_json(&json!({"id": v["id"], "white": v["white"], "black": v["black"]}))?;
            } else {
                outln!("Game {} created.", g.view.id)?;
                outln!(
                    "White {} sends moves to {}",
                    who(&g.view.white),
                    v["white"]["address"].as_str().unwrap_or_default()
                )?;
                outln!(
                    "Black {} sends moves to {}",
                    who(&g.view.black),
                    v["black"]["address"].as_str().unwrap_or_default()
                )?;
            }
            ExitCode::SUCCESS
        }
        GameCommand::List { json } => {
            let mut games = Vec::new();
            for id in store.game_ids().await? {
                games.push(get(&store, id).await?);
            }
            if json {
                print_json(&Value::Array(
                    games.iter().map(|g| game_json(g, referee)).collect(),
                ))?;
            } else {
                for g in &games {
                    outln!(
                        "{:>5}  {} - {}  {}  {} plies  {}",
                        g.view.id,
                        g.view.white.email,
                        g.view.black.email,
                        g.view.record.end.map_or("*", |e| e.result_text()),
                        g.view.record.plies().len(),
                        status_line(&g.view.record)
                    )?;
                }
            }
            ExitCode::SUCCESS
        }
        GameCommand::Show {
            id,
            json,
            conditionals: true,
            seat: Some(seat),
        } => {
            get(&store, id).await?;
            let color = if seat == "white" {
                Color::White
            } else {
                Color::Black
            };
            let trees = store.conditionals(id).await?;
            let tree = trees.get(color);
            if json {
                print_json(&json!({"game": id, "seat": seat, "conditionals": tree}))?;
            } else {
                match tree {
                    Some(t) => {
                        outln!("Game {id}: {seat}'s conditional moves:")?;
                        for (i, l) in t.lines().iter().enumerate() {
                            outln!("  {}. {l}", i + 1)?;
                        }
                    }
                    None => outln!("Game {id}: {seat} has no conditional moves.")?,
                }
            }
            ExitCode::SUCCESS
        }
        GameCommand::Show { id, json, .. } => {
            let s = shown(&store, &config.clock.rules, id).await?;
            let g = &s.game;
            let failed = store
                .outbox_list(wildt::store::outbox::ListFilter::FailedOfGame(id))
                .await?;
            if json {
                let mut v = shown_json(&s, referee);
                v["failed_mail"] = serde_json::to_value(&failed)?;
                print_json(&v)?;
            } else {
                let r = &g.view.record;
                outln!(
                    "Game {id}: {} (White) - {} (Black)",
                    who(&g.view.white),
                    who(&g.view.black)
                )?;
                if let Some(e) = &g.event {
                    outln!("Event: {e}")?;
                }
                outln!()?;
                print!("{}", board_diagram(r.position()));
                outln!()?;
                let text = record_text(r, true);
                outln!(
                    "Record: {}",
                    if text.is_empty() {
                        "(no moves yet)"
                    } else {
                        &text
                    }
                )?;
                outln!("{}", status_line(r))?;
                if let Some(c) = &s.clock {
                    outln!("Time control: {}", c.control)?;
                    print!("{}", wildt::reply::clock_lines(wildt::i18n::Lang::En, c));
                }
                for f in &failed {
                    outln!(
                        "Mail not delivered: #{} to {} ({}): {} (`wildt outbox retry {}`)",
                        f.id,
                        f.recipient,
                        f.event,
                        f.last_error.as_deref().unwrap_or("no reason recorded"),
                        f.id
                    )?;
                }
            }
            ExitCode::SUCCESS
        }
        GameCommand::Move {
            id,
            mv,
            seat,
            at,
            json,
        } => {
            let at = at.as_deref().map(instant_arg).transpose()?;
            let seat = if seat == "white" {
                Color::White
            } else {
                Color::Black
            };
            let command = match mv.to_ascii_lowercase().as_str() {
                "resign" => Command::Resign,
                "offer-draw" => Command::OfferDraw,
                "accept-draw" => Command::AcceptDraw,
                "decline-draw" => Command::DeclineDraw,
                "claim-draw" => Command::ClaimDraw,
                "status" => Command::Status,
                text => match text.parse() {
                    Ok(m) => Command::single(m),
                    Err(e) => {
                        eprintln!("wildt: {e}");
                        return Ok(ExitCode::from(2));
                    }
                },
            };
            let verdict =
                organise::play_by_hand_at(&store, &config.rules(), id, seat, &command, at).await?;
            let g = get(&store, id).await?;
            let rejected = matches!(verdict, Verdict::Rejected(_));
            if json {
                let mut v = game_json(&g, referee);
                v["verdict"] = match &verdict {
                    Verdict::Rejected(why) => json!({"rejected": why.to_string()}),
                    Verdict::Moved { ply, number, .. } => {
                        json!({"moved": {"iccf": ply.iccf.to_string(), "san": ply.san.as_str(), "number": MoveNumberText(*number).to_string()}})
                    }
                    other => json!({"accepted": format!("{other:?}")}),
                };
                print_json(&v)?;
            } else {
                match &verdict {
                    Verdict::Rejected(why) => {
                        eprintln!("Not played: {why}.");
                        eprintln!(
                            "What to do: {}",
                            wildt::i18n::explain::what_to_do(
                                wildt::i18n::Lang::En,
                                why,
                                &g.view.record,
                                seat
                            )
                        );
                    }
                    Verdict::Moved { ply, number, .. } => {
                        outln!(
                            "{} {} ({}) recorded.",
                            MoveNumberText(*number),
                            ply.iccf,
                            ply.san
                        )?;
                    }
                    other => outln!("{other:?}")?,
                }
                outln!("{}", status_line(&g.view.record))?;
            }
            if rejected {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            }
        }
        GameCommand::Rekey {
            id,
            seat,
            no_mail,
            json,
        } => {
            let color = if seat == "white" {
                Color::White
            } else {
                Color::Black
            };
            let key = organise::rekey(&store, referee, id, color, mailing(no_mail)).await?;
            let g = get(&store, id).await?;
            let address = game_address(referee, id, &key);
            let email = g.view.player(color).email.clone();
            if json {
                print_json(
                    &json!({"id": id, "seat": seat, "email": email, "address": address, "mailed": !no_mail}),
                )?;
            } else {
                outln!(
                    "{seat} ({email}) now sends moves to {address}; the old address no longer works."
                )?;
                if !no_mail {
                    outln!("The new address is mailed to {email}.")?;
                }
            }
            ExitCode::SUCCESS
        }
        GameCommand::Leave { id, seat, from, to } => {
            let color = seat_of(&seat);
            let date = |t: &str| -> anyhow::Result<wildt::clock::Date> {
                t.parse().map_err(|e| anyhow::anyhow!("{t}: {e}"))
            };
            let leave = wildt::clock::Leave {
                from: date(&from)?,
                to: date(&to)?,
            };
            let rules = config.rules();
            match organise::grant_leave(&store, &rules, id, color, leave).await? {
                wildt::clock::LeaveDecision::Granted(l) => {
                    outln!(
                        "{seat} is on leave from {} to {}; both players are mailed, and the \
                         opponents in the player's other unfinished games.",
                        l.from,
                        l.to
                    )?;
                    ExitCode::SUCCESS
                }
                wildt::clock::LeaveDecision::Refused(why) => {
                    eprintln!("Leave refused: {}.", refusal_text(&why));
                    ExitCode::from(2)
                }
            }
        }
        GameCommand::Clock { id, seat, add_days } => {
            organise::add_days(&store, &config.rules(), id, seat_of(&seat), add_days).await?;
            outln!("{seat} gets {add_days} days in game {id}; both players are mailed.")?;
            ExitCode::SUCCESS
        }
        GameCommand::Adjudicate { id, result, reason } => {
            let r = wildt::game::GameResult::parse(&result)
                .ok_or_else(|| anyhow::anyhow!("result {result}"))?;
            organise::adjudicate(&store, referee, id, r, &reason).await?;
            outln!("Game {id} decided: {result} (adjudication); both players are mailed.")?;
            ExitCode::SUCCESS
        }
        GameCommand::Pgn { id } => {
            let s = shown(&store, &config.clock.rules, id).await?;
            let g = &s.game;
            print!(
                "{}",
                pgn(
                    &g.view.record,
                    &PgnHeaders {
                        event: g
                            .event
                            .clone()
                            .unwrap_or_else(|| "Correspondence game".to_owned()),
                        site: referee.address.clone(),
                        date: wildt::game::pgn_date(g.created_at),
                        white: g.view.white.email.clone(),
                        black: g.view.black.email.clone(),
                        game_id: id,
                        time_control: s.clock.as_ref().map(|c| c.control.to_string()),
                        days: s
                            .clock
                            .as_ref()
                            .map(|c| c.charges.clone())
                            .unwrap_or_default(),
                    }
                )
            );
            ExitCode::SUCCESS
        }
    };
    store.close().await;
    Ok(code)
}

/// `wildt check FILE.eml`: the daemon's own handling, rolled back.
pub async fn check(config: &ConfigArgs, file: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let (config, store) = open(config).await?;
    let raw = std::fs::read(file).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let handled = handle_message(
        &store,
        &config.rules(),
        &Source::Cli,
        &raw,
        raw.len(),
        Mode::DryRun,
    )
    .await?;
    store.close().await;
    match handled {
        Handled::Duplicate { outcome } => {
            if json {
                print_json(&json!({"duplicate": true, "outcome": outcome}))?;
            } else {
                outln!(
                    "Already processed (outcome: {outcome}); the daemon would not decide it again."
                )?;
            }
        }
        Handled::Decided {
            intake,
            decision,
            letters,
            mails: _,
        } => {
            let summary = intake.summary();
            let command = match (&summary.line, summary.outcome) {
                (Some(line), _) => Some(format!(
                    "play {}{}",
                    line.join(" "),
                    if summary.offer_draw == Some(true) {
                        " (offers a draw)"
                    } else {
                        ""
                    }
                )),
                (None, "unclear" | "automatic" | "too_large") => None,
                (None, other) => Some(other.to_owned()),
            };
            let seat = decision
                .seat
                .map(|c| if c == Color::White { "white" } else { "black" });
            if json {
                let replies: Vec<Value> = letters
                    .mails
                    .iter()
                    .map(|m| json!({"to": m.to, "subject": m.subject, "event": m.kind.as_str(), "body": m.body}))
                    .collect();
                print_json(&json!({
                    "message_id": intake.message_id,
                    "from": intake.from,
                    "game": decision.game,
                    "seat": seat,
                    "command": command,
                    "reading": summary.outcome,
                    "reading_kind": summary.kind.or(summary.reason),
                    "outcome": decision.outcome.as_str(),
                    "detail": decision.detail,
                    "rate_limited": letters.rate_limited,
                    "conditionals": conditionals_json(&decision),
                    "sender_auth": decision.auth.as_ref().map(|a| json!({
                        "passed": a.passed(),
                        "verdict": a.to_string(),
                    })),
                    "replies": replies,
                }))?;
            } else {
                outln!("From:     {}", intake.from.as_deref().unwrap_or("(none)"))?;
                outln!(
                    "Game:     {}",
                    decision.game.map_or("(none)".to_owned(), |g| g.to_string())
                )?;
                outln!("Player:   {}", seat.unwrap_or("(none)"))?;
                let trusted = config.security.trusted_authserv_id.as_deref();
                outln!(
                    "Sender:   {}",
                    match (&decision.auth, trusted) {
                        (Some(a), Some(id)) => format!("{a}, says {id}"),
                        (_, None) => {
                            "not checked ([security] trusted_authserv_id is not set)".to_owned()
                        }
                        (None, Some(_)) => "not checked (no From)".to_owned(),
                    }
                )?;
                outln!(
                    "Read:     {}",
                    command.as_deref().map_or_else(
                        || summary
                            .explanation
                            .clone()
                            .unwrap_or_else(|| summary.outcome.to_owned()),
                        str::to_owned
                    )
                )?;
                outln!("Outcome:  {} - {}", decision.outcome, decision.detail)?;
                if let Some(text) = conditionals_text(&decision) {
                    outln!("Conditional moves: {text}")?;
                }
                if letters.mails.is_empty() {
                    outln!("Replies:  none")?;
                }
                for m in &letters.mails {
                    outln!(
                        "\n--- reply to {} ({}) ---\nSubject: {}\n\n{}",
                        m.to,
                        m.kind.as_str(),
                        m.subject,
                        m.body
                    )?;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `check`'s view of the message's conditional moves: the parsed tree as
/// stored, or why it was refused.
fn conditionals_json(decision: &wildt::decide::Decision) -> Value {
    use wildt::decide::conditional::SetChange;
    match &decision.conditional {
        None => Value::Null,
        Some(SetChange::Replaced(tree)) => json!({"change": "replaced", "tree": tree}),
        Some(SetChange::Cancelled) => json!({"change": "cancelled"}),
        Some(SetChange::Rejected(why)) => json!({"change": "rejected", "reason": why.to_string()}),
        Some(SetChange::Unreadable(why)) => {
            json!({"change": "unreadable", "reason": why.to_string()})
        }
        Some(SetChange::NotConsidered) => json!({"change": "not_considered"}),
    }
}

fn conditionals_text(decision: &wildt::decide::Decision) -> Option<String> {
    use wildt::decide::conditional::SetChange;
    Some(match decision.conditional.as_ref()? {
        SetChange::Replaced(tree) => {
            let mut s = "stored (replacing any earlier set):".to_owned();
            for (i, l) in tree.lines().iter().enumerate() {
                s.push_str(&format!("\n  {}. {l}", i + 1));
            }
            s
        }
        SetChange::Cancelled => "cancelled".to_owned(),
        SetChange::Rejected(why) => format!("refused: {why}"),
        SetChange::Unreadable(why) => format!("refused: {why}"),
        SetChange::NotConsidered => {
            "not looked at (the rest of the message is not one clear command)".to_owned()
        }
    })
}
