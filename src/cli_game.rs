//! `wildt game …` and `wildt player …`: the organiser's commands. Each
//! subcommand is one function below; `run` opens the configuration and the
//! store once and hands them to it. [IO: database, prints]

use std::process::ExitCode;

use serde_json::{Value, json};
use shakmaty::Color;
use wildt::clock::{ClockState, TimeControl};
use wildt::command::Command;
use wildt::deadlines::TimedGame;
use wildt::decide::game_address;
use wildt::game::{
    GameResult, MoveNumberText, PgnHeaders, board_diagram, pgn, record_text, status_line,
};
use wildt::i18n::Lang;
use wildt::organise::{self, Mailing, NewGame};
use wildt::referee::Verdict;
use wildt::store::{Store, StoredGame, now_secs};

use crate::{ConfigArgs, Opened, print_json};

/// A seat at the board, as `--as` names it.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Seat {
    White,
    Black,
}

impl Seat {
    fn color(self) -> Color {
        match self {
            Seat::White => Color::White,
            Seat::Black => Color::Black,
        }
    }

    /// The seat as it was written on the command line.
    fn as_str(self) -> &'static str {
        match self {
            Seat::White => "white",
            Seat::Black => "black",
        }
    }
}

impl std::fmt::Display for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result an adjudication gives, written as in PGN.
// No doc comments on the variants: clap would show them in `--help`
// beside the possible values.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Adjudged {
    #[value(name = "1-0")]
    WhiteWins,
    #[value(name = "0-1")]
    BlackWins,
    #[value(name = "1/2-1/2")]
    Draw,
}

impl Adjudged {
    fn result(self) -> GameResult {
        match self {
            Adjudged::WhiteWins => GameResult::WhiteWins,
            Adjudged::BlackWins => GameResult::BlackWins,
            Adjudged::Draw => GameResult::Draw,
        }
    }
}

#[derive(clap::Subcommand)]
pub enum GameCommand {
    /// Create a game; prints each player's game address.
    New(NewArgs),
    /// List the games.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Show a game: board, record, whose move, and any mail to its players
    /// that failed for good; with `--as SEAT --conditionals`, that seat's
    /// stored conditional moves instead (for the organiser only: never shown
    /// to the opponent).
    Show(ShowArgs),
    /// Record a move (or resign, offer-draw, accept-draw, decline-draw,
    /// claim-draw) by hand, as for a postcard game.
    Move(MoveArgs),
    /// Export the game as PGN.
    Pgn { id: i64 },
    /// Give a player leave (both days included, `2026-12-20` or
    /// `20.12.2026`); refused beyond the yearly allowance or over another
    /// leave. Both players are mailed, and the opponent in each other
    /// unfinished game of the player (the leave stops all their clocks).
    Leave(LeaveArgs),
    /// A ruling on the clock: give (or, negative, take) days. Both players
    /// are mailed.
    Clock {
        id: i64,
        #[arg(long = "as")]
        seat: Seat,
        #[arg(long, allow_negative_numbers = true)]
        add_days: i64,
    },
    /// Decide an unfinished game (termination: adjudication). Both players
    /// are mailed the result and the reason.
    Adjudicate {
        id: i64,
        result: Adjudged,
        #[arg(long)]
        reason: String,
    },
    /// Give a player a new secret game address; the old one stops working.
    /// The player is mailed the new address.
    Rekey(RekeyArgs),
}

// The argument structs carry no doc comment of their own: the variant's is
// the subcommand's help.

#[derive(clap::Args)]
pub struct NewArgs {
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
    time: Option<TimeControl>,
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
}

#[derive(clap::Args)]
pub struct ShowArgs {
    id: i64,
    #[arg(long)]
    json: bool,
    /// Show the stored conditional moves of the seat given with `--as`.
    #[arg(long, requires = "seat")]
    conditionals: bool,
    #[arg(long = "as", requires = "conditionals")]
    seat: Option<Seat>,
}

#[derive(clap::Args)]
pub struct MoveArgs {
    id: i64,
    /// An ICCF move (5254) or one of the commands above.
    #[arg(value_name = "MOVE")]
    mv: String,
    #[arg(long = "as")]
    seat: Seat,
    /// When the move reached the organiser (a postcard's postmark):
    /// `2026-12-20` or an RFC 3339 instant; default now.
    #[arg(long)]
    at: Option<String>,
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct LeaveArgs {
    id: i64,
    #[arg(long = "as")]
    seat: Seat,
    #[arg(long)]
    from: String,
    #[arg(long)]
    to: String,
}

#[derive(clap::Args)]
pub struct RekeyArgs {
    id: i64,
    #[arg(long = "as")]
    seat: Seat,
    /// Do not mail the player the new address (the organiser passes it on).
    #[arg(long)]
    no_mail: bool,
    #[arg(long)]
    json: bool,
}

#[derive(clap::Subcommand)]
pub enum PlayerCommand {
    /// Set a player's language (it applies to all their games and overrides
    /// what they chose by mail or wildt guessed), or their Xfcc password.
    #[command(group(clap::ArgGroup::new("what").required(true).multiple(true)
        .args(["lang", "xfcc_password_file", "xfcc_password_random"])))]
    Set {
        /// The player's registered address.
        email: String,
        /// en, de, fr, es, it, nl, pt, pl, cs, ru (or the language's name).
        #[arg(long)]
        lang: Option<Lang>,
        /// Set the player's Xfcc password (for chess GUIs) to the first line
        /// of this file (at least 8 characters); it is not mailed.
        #[arg(long, value_name = "FILE", conflicts_with = "xfcc_password_random")]
        xfcc_password_file: Option<std::path::PathBuf>,
        /// Set a random Xfcc password and mail it to the player.
        #[arg(long)]
        xfcc_password_random: bool,
    },
}

/// `wildt game …`: opens the configuration and the store, runs the
/// subcommand, closes the store.
pub async fn run(args: &ConfigArgs, cmd: GameCommand) -> anyhow::Result<ExitCode> {
    let o = args.open().await?;
    let code = match cmd {
        GameCommand::New(a) => new(&o, a).await,
        GameCommand::List { json } => list(&o, json).await,
        GameCommand::Show(ShowArgs {
            id,
            json,
            conditionals: true,
            seat: Some(seat),
        }) => show_conditionals(&o, id, seat, json).await,
        GameCommand::Show(ShowArgs { id, json, .. }) => show(&o, id, json).await,
        GameCommand::Move(a) => play(&o, a).await,
        GameCommand::Rekey(a) => rekey(&o, a).await,
        GameCommand::Leave(a) => leave(&o, a).await,
        GameCommand::Clock { id, seat, add_days } => clock(&o, id, seat, add_days).await,
        GameCommand::Adjudicate { id, result, reason } => adjudicate(&o, id, result, &reason).await,
        GameCommand::Pgn { id } => export_pgn(&o, id).await,
    };
    o.store.close().await;
    code
}

/// `wildt player …`.
pub async fn player(args: &ConfigArgs, command: PlayerCommand) -> anyhow::Result<ExitCode> {
    let o = args.open().await?;
    let code = match command {
        PlayerCommand::Set {
            email,
            lang,
            xfcc_password_file,
            xfcc_password_random,
        } => {
            let mut code = Ok(ExitCode::SUCCESS);
            if let Some(lang) = lang {
                code = set_player_lang(&o, &email, lang).await;
            }
            if code.is_ok() && (xfcc_password_file.is_some() || xfcc_password_random) {
                code = set_xfcc_password(&o, &email, xfcc_password_file).await;
            }
            code
        }
    };
    o.store.close().await;
    code
}

/// `wildt player set EMAIL --lang LANG`.
async fn set_player_lang(o: &Opened, email: &str, lang: Lang) -> anyhow::Result<ExitCode> {
    organise::set_player_lang(&o.store, email, lang).await?;
    outln!(
        "{} reads wildt's mail in {} ({lang}).",
        email.trim().to_ascii_lowercase(),
        lang.native_name()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `wildt player set EMAIL --xfcc-password-file FILE | --xfcc-password-random`.
async fn set_xfcc_password(
    o: &Opened,
    email: &str,
    file: Option<std::path::PathBuf>,
) -> anyhow::Result<ExitCode> {
    use wildt::xfcc::account::{NewPassword, set_password};
    let new = match &file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
            NewPassword::Given(text.lines().next().unwrap_or("").to_owned())
        }
        None => NewPassword::Random,
    };
    set_password(&o.store, &o.config.referee, email, new).await?;
    let email = email.trim().to_ascii_lowercase();
    match file {
        Some(_) => outln!("{email} has a new Xfcc password.")?,
        None => outln!("{email} has a new random Xfcc password; it is mailed to them.")?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `wildt game new`.
async fn new(o: &Opened, a: NewArgs) -> anyhow::Result<ExitCode> {
    let referee = &o.config.referee;
    let g = organise::create_game(
        &o.store,
        referee,
        o.config.limits.games_per_player,
        NewGame {
            white: &a.white,
            black: &a.black,
            fen: a.fen.as_deref(),
            event: a.event.as_deref(),
            time: a.time.unwrap_or(o.config.clock.default_time),
            white_lang: a.white_lang,
            black_lang: a.black_lang,
        },
        mailing(a.no_mail),
    )
    .await?;
    let v = game_json(&g, referee);
    if a.json {
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
    Ok(ExitCode::SUCCESS)
}

/// `wildt game list`.
async fn list(o: &Opened, json: bool) -> anyhow::Result<ExitCode> {
    let mut games = Vec::new();
    for id in o.store.game_ids().await? {
        games.push(get(&o.store, id).await?);
    }
    if json {
        print_json(&Value::Array(
            games
                .iter()
                .map(|g| game_json(g, &o.config.referee))
                .collect(),
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
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
    Ok(ExitCode::SUCCESS)
}

/// `wildt game show ID --as SEAT --conditionals`.
async fn show_conditionals(
    o: &Opened,
    id: i64,
    seat: Seat,
    json: bool,
) -> anyhow::Result<ExitCode> {
    get(&o.store, id).await?;
    let trees = o.store.conditionals(id).await?;
    let tree = trees.get(seat.color());
    if json {
        print_json(&json!({"game": id, "seat": seat.as_str(), "conditionals": tree}))?;
        return Ok(ExitCode::SUCCESS);
    }
    match tree {
        Some(t) => {
            outln!("Game {id}: {seat}'s conditional moves:")?;
            for (i, l) in t.lines().iter().enumerate() {
                outln!("  {}. {l}", i + 1)?;
            }
        }
        None => outln!("Game {id}: {seat} has no conditional moves.")?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `wildt game show ID`.
async fn show(o: &Opened, id: i64, json: bool) -> anyhow::Result<ExitCode> {
    let s = shown(&o.store, &o.config.clock.rules, id).await?;
    let failed = o
        .store
        .outbox_list(wildt::store::outbox::ListFilter::FailedOfGame(id))
        .await?;
    if json {
        let mut v = shown_json(&s, &o.config.referee);
        v["failed_mail"] = serde_json::to_value(&failed)?;
        print_json(&v)?;
        return Ok(ExitCode::SUCCESS);
    }
    let g = &s.game;
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
        print!("{}", wildt::reply::clock_lines(Lang::En, c));
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
    Ok(ExitCode::SUCCESS)
}

/// The command a `game move` names: a command word, or an ICCF move.
fn command_of(mv: &str) -> Result<Command, wildt::notation::ParseError> {
    Ok(match mv.to_ascii_lowercase().as_str() {
        "resign" => Command::Resign,
        "offer-draw" => Command::OfferDraw,
        "accept-draw" => Command::AcceptDraw,
        "decline-draw" => Command::DeclineDraw,
        "claim-draw" => Command::ClaimDraw,
        "status" => Command::Status,
        text => Command::single(text.parse()?),
    })
}

/// `wildt game move ID MOVE --as SEAT`: exits 2 when the move is not
/// played (unreadable or refused).
async fn play(o: &Opened, a: MoveArgs) -> anyhow::Result<ExitCode> {
    let at = a.at.as_deref().map(instant_arg).transpose()?;
    let seat = a.seat.color();
    let command = match command_of(&a.mv) {
        Ok(command) => command,
        Err(e) => {
            eprintln!("wildt: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let verdict =
        organise::play_by_hand_at(&o.store, &o.config.rules(), a.id, seat, &command, at).await?;
    let g = get(&o.store, a.id).await?;
    if a.json {
        let mut v = game_json(&g, &o.config.referee);
        v["verdict"] = verdict_json(&verdict);
        print_json(&v)?;
    } else {
        print_verdict(&verdict, &g, seat)?;
    }
    Ok(if matches!(verdict, Verdict::Rejected(_)) {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

fn verdict_json(verdict: &Verdict) -> Value {
    match verdict {
        Verdict::Rejected(why) => json!({"rejected": why.to_string()}),
        Verdict::Moved { ply, number, .. } => {
            json!({"moved": {"iccf": ply.iccf.to_string(), "san": ply.san.as_str(), "number": MoveNumberText(*number).to_string()}})
        }
        other => json!({"accepted": format!("{other:?}")}),
    }
}

/// What `game move` prints: the move recorded (or why not, on stderr),
/// then the game's status.
fn print_verdict(verdict: &Verdict, g: &StoredGame, seat: Color) -> anyhow::Result<()> {
    match verdict {
        Verdict::Rejected(why) => {
            eprintln!("Not played: {why}.");
            eprintln!(
                "What to do: {}",
                wildt::i18n::explain::what_to_do(Lang::En, why, &g.view.record, seat)
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
    Ok(())
}

/// `wildt game rekey ID --as SEAT`.
async fn rekey(o: &Opened, a: RekeyArgs) -> anyhow::Result<ExitCode> {
    let referee = &o.config.referee;
    let (id, seat) = (a.id, a.seat);
    let key = organise::rekey(&o.store, referee, id, seat.color(), mailing(a.no_mail)).await?;
    let g = get(&o.store, id).await?;
    let address = game_address(referee, id, &key);
    let email = g.view.player(seat.color()).email.clone();
    if a.json {
        print_json(
            &json!({"id": id, "seat": seat.as_str(), "email": email, "address": address, "mailed": !a.no_mail}),
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!("{seat} ({email}) now sends moves to {address}; the old address no longer works.")?;
    if !a.no_mail {
        outln!("The new address is mailed to {email}.")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `wildt game leave ID --as SEAT --from DAY --to DAY`: exits 2 when the
/// leave is refused.
async fn leave(o: &Opened, a: LeaveArgs) -> anyhow::Result<ExitCode> {
    let date = |t: &str| -> anyhow::Result<wildt::clock::Date> {
        t.parse().map_err(|e| anyhow::anyhow!("{t}: {e}"))
    };
    let leave = wildt::clock::Leave {
        from: date(&a.from)?,
        to: date(&a.to)?,
    };
    let rules = o.config.rules();
    match organise::grant_leave(&o.store, &rules, a.id, a.seat.color(), leave).await? {
        wildt::clock::LeaveDecision::Granted(l) => {
            outln!(
                "{} is on leave from {} to {}; both players are mailed, and the \
                 opponents in the player's other unfinished games.",
                a.seat,
                l.from,
                l.to
            )?;
            Ok(ExitCode::SUCCESS)
        }
        wildt::clock::LeaveDecision::Refused(why) => {
            eprintln!(
                "Leave refused: {}.",
                wildt::reply::leave_refusal_text(
                    Lang::En,
                    &why,
                    wildt::reply::LeaveReader::Organiser
                )
            );
            Ok(ExitCode::from(2))
        }
    }
}

/// `wildt game clock ID --as SEAT --add-days N`.
async fn clock(o: &Opened, id: i64, seat: Seat, add_days: i64) -> anyhow::Result<ExitCode> {
    organise::add_days(&o.store, &o.config.rules(), id, seat.color(), add_days).await?;
    outln!("{seat} gets {add_days} days in game {id}; both players are mailed.")?;
    Ok(ExitCode::SUCCESS)
}

/// `wildt game adjudicate ID RESULT --reason TEXT`.
async fn adjudicate(
    o: &Opened,
    id: i64,
    result: Adjudged,
    reason: &str,
) -> anyhow::Result<ExitCode> {
    let result = result.result();
    organise::adjudicate(&o.store, &o.config.referee, id, result, reason).await?;
    outln!(
        "Game {id} decided: {} (adjudication); both players are mailed.",
        result.as_str()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `wildt game pgn ID`.
async fn export_pgn(o: &Opened, id: i64) -> anyhow::Result<ExitCode> {
    let s = shown(&o.store, &o.config.clock.rules, id).await?;
    let g = &s.game;
    let headers = PgnHeaders {
        event: g
            .event
            .clone()
            .unwrap_or_else(|| "Correspondence game".to_owned()),
        site: o.config.referee.address.clone(),
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
    };
    print!("{}", pgn(&g.view.record, &headers));
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
        "to_move": if r.is_over() { None } else { Some(color_key(r.turn())) },
        "draw_offer": r.draw_offer.map(color_key),
        "moves": moves,
    })
}

/// `white` or `black`, as the JSON output writes a side.
pub fn color_key(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// `Anna Smith <anna@x.example>`, or the address alone.
fn who(p: &wildt::decide::Player) -> String {
    match &p.name {
        Some(name) => format!("{name} <{}>", p.email),
        None => p.email.clone(),
    }
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

async fn get(store: &Store, id: i64) -> anyhow::Result<StoredGame> {
    store
        .game(id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("game {id} does not exist"))
}
