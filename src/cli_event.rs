//! `wildt event …` and `wildt publish`: the organiser's section commands and
//! the public site. [IO: database, files, prints]

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use serde_json::json;
use wildt::clock::TimeControl;
use wildt::event::{Cycles, WithdrawalRule, event_json, parse_players};
use wildt::organise::Mailing;
use wildt::organise::event::{NewEvent, create_event, load_event, withdraw_player};
use wildt::store::Store;

use crate::{ConfigArgs, Opened, print_json};

#[derive(clap::Subcommand)]
pub enum EventCommand {
    /// Create an all-play-all section: every game of its Berger table, with
    /// the welcome mails, in one transaction.
    New(NewArgs),
    /// List the events.
    List {
        #[arg(long)]
        json: bool,
    },
    /// The crosstable: points, games played, Sonneborn–Berger, rank.
    Show {
        id: i64,
        #[arg(long)]
        json: bool,
    },
    /// Withdraw a player: their unfinished games are scored as forfeits (or
    /// annulled), their opponents told.
    Withdraw {
        id: i64,
        email: String,
        /// Annul instead when fewer than half of the player's games were
        /// played (ICCF's rule).
        #[arg(long)]
        annul_under_half: bool,
        #[arg(long)]
        json: bool,
    },
}

// No doc comment: the variant's is the subcommand's help.
#[derive(clap::Args)]
pub struct NewArgs {
    name: String,
    /// A file with one player a line (`Anna Smith <anna@x.example>`), or
    /// the players separated by commas.
    #[arg(long)]
    players: String,
    /// Two games per pair, colours swapped.
    #[arg(long)]
    double: bool,
    /// Every game's time control: `10/50`, `30+3` or `none`; default
    /// `[clock] default_time`.
    #[arg(long)]
    time: Option<TimeControl>,
    #[arg(long)]
    json: bool,
}

fn player_text(arg: &str) -> anyhow::Result<String> {
    let path = Path::new(arg);
    if !arg.contains('@') || path.is_file() {
        return std::fs::read_to_string(path).with_context(|| format!("cannot read {arg}"));
    }
    Ok(arg.replace(',', "\n"))
}

/// `wildt event …`: opens the configuration and the store, runs the
/// subcommand, closes the store.
pub async fn run(args: &ConfigArgs, cmd: EventCommand) -> anyhow::Result<ExitCode> {
    let o = args.open().await?;
    let done = match cmd {
        EventCommand::New(a) => new(&o, a).await,
        EventCommand::List { json } => list(&o, json).await,
        EventCommand::Show { id, json } => show(&o, id, json).await,
        EventCommand::Withdraw {
            id,
            email,
            annul_under_half,
            json,
        } => withdraw(&o, id, &email, annul_under_half, json).await,
    };
    o.store.close().await;
    done.map(|()| ExitCode::SUCCESS)
}

/// `wildt event new NAME --players …`.
async fn new(o: &Opened, a: NewArgs) -> anyhow::Result<()> {
    let players = parse_players(&player_text(&a.players)?)?;
    let created = create_event(
        &o.store,
        &o.config.referee,
        o.config.limits.games_per_player,
        NewEvent {
            name: &a.name,
            players: &players,
            cycles: if a.double {
                Cycles::Double
            } else {
                Cycles::Single
            },
            time: a.time.unwrap_or(o.config.clock.default_time),
        },
        Mailing::Mail,
    )
    .await?;
    if a.json {
        let games: Vec<_> = created
            .games
            .iter()
            .map(|(round, g)| {
                json!({"id": g.view.id, "round": round, "white": g.view.white.email, "black": g.view.black.email})
            })
            .collect();
        return print_json(&json!({"id": created.id, "name": a.name, "games": games}));
    }
    outln!(
        "Event {} created: {} players, {} games; each player was mailed their games.",
        created.id,
        players.len(),
        created.games.len()
    )?;
    for (round, g) in &created.games {
        outln!(
            "round {round:>2}  game {:>4}  {} - {}",
            g.view.id,
            g.view.white.email,
            g.view.black.email
        )?;
    }
    Ok(())
}

/// `wildt event list`.
async fn list(o: &Opened, json: bool) -> anyhow::Result<()> {
    let mut conn = o.store.pool().acquire().await?;
    let mut list = Vec::new();
    for id in wildt::store::events::ids(&mut conn).await? {
        let s = load_event(&mut conn, id).await?;
        let finished = s
            .games
            .iter()
            .filter(|g| g.outcome != wildt::event::Outcome::Unfinished)
            .count();
        list.push((s, finished));
    }
    if json {
        return print_json(&serde_json::Value::Array(
            list.iter()
                .map(|(s, finished)| {
                    json!({"id": s.event.id, "name": s.event.name, "players": s.event.players.len(), "games": s.games.len(), "finished": finished})
                })
                .collect(),
        ));
    }
    for (s, finished) in &list {
        outln!(
            "{:>4}  {}  {} players, {}/{} games finished",
            s.event.id,
            s.event.name,
            s.event.players.len(),
            finished,
            s.games.len()
        )?;
    }
    Ok(())
}

/// `wildt event show ID`: the crosstable.
async fn show(o: &Opened, id: i64, json: bool) -> anyhow::Result<()> {
    let mut conn = o.store.pool().acquire().await?;
    let s = load_event(&mut conn, id).await?;
    if json {
        return print_json(&serde_json::to_value(event_json(
            id,
            &s.event.name,
            &s.table,
            &s.games,
        ))?);
    }
    outln!("{}", s.event.name)?;
    outln!(
        "{}",
        s.table.to_text(|p| match &p.name {
            Some(n) => format!("{n} <{}>", p.email),
            None => p.email.clone(),
        })
    )?;
    Ok(())
}

/// `wildt event withdraw ID EMAIL`.
async fn withdraw(
    o: &Opened,
    id: i64,
    email: &str,
    annul_under_half: bool,
    json: bool,
) -> anyhow::Result<()> {
    let rule = if annul_under_half {
        WithdrawalRule::AnnulUnderHalf
    } else {
        WithdrawalRule::Forfeit
    };
    let w = withdraw_player(&o.store, &o.config.referee, id, email, rule).await?;
    if json {
        return print_json(&json!({
            "event": id,
            "email": email,
            "played": w.played,
            "total": w.total,
            "ruling": if w.annulled { "annulled" } else { "forfeit" },
            "games": w.rulings.iter().map(|(g, o)| json!({"id": g, "result": o.code()})).collect::<Vec<_>>(),
        }));
    }
    outln!(
        "{email} withdrawn ({} of {} games played): {} unfinished games {}; opponents mailed.",
        w.played,
        w.total,
        w.rulings.len(),
        if w.annulled {
            "annulled"
        } else {
            "scored as forfeits"
        }
    )?;
    Ok(())
}

/// `wildt publish --out DIR`.
pub async fn publish(config: &ConfigArgs, out: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    let config = config.load()?;
    let out = out
        .or_else(|| config.publish.as_ref().map(|p| p.path.clone()))
        .context("give --out DIR, or set [publish] path in the configuration")?;
    let store = Store::for_config(&config).await?;
    let report = wildt::publish::publish(&store, &config.clock.rules, &out).await?;
    store.close().await;
    outln!(
        "{} pages, {} PGN files written to {}",
        report.pages,
        report.pgn,
        out.display()
    )?;
    Ok(ExitCode::SUCCESS)
}
