//! The public site's pages: an index of events and games, each
//! event's crosstable, each game's board after the last move with its record
//! in numeric notation and SAN, one page per position so a game can be
//! stepped through without scripts, and the PGN files. [pure: no IO]
//!
//! Only what may be public enters here: players by their public name
//! ([`crate::event::public_name`]), never an address, a key, a player's mail
//! or a conditional move — the caller hands over names, records, results and
//! clocks ([`SiteClock`]: days, and whether a player is on leave, never the
//! dates of a leave), nothing else. Pages are small, need no external resource, and carry
//! headings, table headers and labels for screen readers.

use maud::{DOCTYPE, Markup, PreEscaped, html};
use shakmaty::{ByColor, Color, Position};

use crate::clock::PlayerClock;
use crate::event::{Cell, Crosstable, EventGame};
use crate::game::{MoveNumberText, PgnHeaders, Record, pgn};
use crate::html::board;
use crate::i18n::{Lang, san::localize};

/// A game as the site shows it.
pub struct SiteGame<'a> {
    pub id: i64,
    pub white: String,
    pub black: String,
    /// The event's id and name, if the game belongs to one.
    pub event: Option<(i64, String)>,
    pub record: &'a Record,
    /// `1-0`, `0-1`, `1/2-1/2`, `*`; `+-`/`-+` for a forfeit, `annulled`.
    pub result: String,
    /// `YYYY.MM.DD` of its creation.
    pub date: String,
    /// Its day clocks, when it is played under a time control.
    pub clock: Option<SiteClock>,
}

/// A game's day clocks as the site shows them: what the players' mails say
/// about time, less anything private (no leave dates, no leave allowance).
pub struct SiteClock {
    /// The control as written (`10/50`, `30+3`).
    pub control: String,
    /// When the clocks were read (`2027-01-05 12:00 UTC`): the moment of
    /// publishing, or the end of a finished game. The pages are a snapshot.
    pub as_of: String,
    /// Whose clock runs (`None` once the game is over).
    pub to_move: Option<Color>,
    /// Both clocks at `as_of`.
    pub now: ByColor<SideClock>,
    /// Days charged for each ply, in order.
    pub charges: Vec<u32>,
    /// Both clocks as each ply arrived: `after[k]` after `k` plies (`after[0]`
    /// at the start), so a position page shows the time at that point.
    pub after: Vec<ByColor<SideClock>>,
}

/// One player's clock, without the leave allowance left (private).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideClock {
    pub days_used: u32,
    /// Days charged so far on the move being thought on.
    pub thinking_days: u32,
    pub days_left: Option<u32>,
    pub next_move: u32,
    pub control_move: Option<u32>,
    pub on_leave: bool,
}

impl From<&PlayerClock> for SideClock {
    fn from(c: &PlayerClock) -> SideClock {
        SideClock {
            days_used: c.days_used,
            thinking_days: c.thinking_days,
            days_left: c.days_left,
            next_move: c.next_move,
            control_move: c.control_move,
            on_leave: c.on_leave,
        }
    }
}

/// An event as the site shows it.
pub struct SiteEvent {
    pub id: i64,
    pub name: String,
    pub table: Crosstable,
    pub games: Vec<EventGame>,
    /// The public name of each row's player, by seat.
    pub names: Vec<String>,
}

/// A file of the site: its path inside the tree and its bytes.
pub struct SiteFile {
    pub path: String,
    pub bytes: Vec<u8>,
}

const CSS: &str = "body{font-family:Arial,Helvetica,sans-serif;max-width:48rem;margin:0 auto;padding:0.75rem;color:#111;background:#fff;line-height:1.4}\
table{border-collapse:collapse}th,td{padding:0.2rem 0.45rem;text-align:left}\
.x th,.x td{border:1px solid #999;text-align:center}.x th[scope=row]{text-align:left}\
.scroll{overflow-x:auto}a{color:#0645ad}nav{margin:0.5rem 0}\
.board td{padding:0;text-align:center}\
.cur{font-weight:bold;background:#ffef9e}";

fn page(title: &str, depth: usize, body: Markup) -> String {
    let up = "../".repeat(depth);
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (PreEscaped(CSS)) }
            }
            body {
                nav aria-label="site" { a href={ (up) "index.html" } { "All events and games" } }
                main { (body) }
            }
        }
    }
    .into_string()
}

fn game_href(depth: usize, id: i64) -> String {
    format!("{}games/{id}.html", "../".repeat(depth))
}

fn position_href(id: i64, ply: usize) -> String {
    format!("{id}/{ply}.html")
}

/// Every file of the site.
pub fn render(events: &[SiteEvent], games: &[SiteGame<'_>]) -> Vec<SiteFile> {
    let mut files = vec![SiteFile {
        path: "index.html".to_owned(),
        bytes: index(events, games).into_bytes(),
    }];
    for e in events {
        files.push(SiteFile {
            path: format!("events/{}.html", e.id),
            bytes: event_page(e).into_bytes(),
        });
        let pgn_text: String = games
            .iter()
            .filter(|g| g.event.as_ref().is_some_and(|(id, _)| *id == e.id))
            .map(|g| game_pgn(g) + "\n")
            .collect();
        files.push(SiteFile {
            path: format!("events/{}.pgn", e.id),
            bytes: pgn_text.into_bytes(),
        });
    }
    for g in games {
        files.push(SiteFile {
            path: format!("games/{}.html", g.id),
            bytes: game_page(g).into_bytes(),
        });
        files.push(SiteFile {
            path: format!("games/{}.pgn", g.id),
            bytes: game_pgn(g).into_bytes(),
        });
        for ply in 0..=g.record.plies().len() {
            files.push(SiteFile {
                path: format!("games/{}/{ply}.html", g.id),
                bytes: position_page(g, ply).into_bytes(),
            });
        }
    }
    files
}

fn index(events: &[SiteEvent], games: &[SiteGame<'_>]) -> String {
    page(
        "Events and games",
        0,
        html! {
            h1 { "Events and games" }
            h2 { "Events" }
            @if events.is_empty() { p { "No events yet." } }
            ul {
                @for e in events {
                    li { a href={ "events/" (e.id) ".html" } { (e.name) } }
                }
            }
            h2 { "Games" }
            @if games.is_empty() { p { "No games yet." } }
            @else {
                div.scroll { table {
                    thead { tr { th scope="col" { "Game" } th scope="col" { "White" } th scope="col" { "Black" } th scope="col" { "Result" } th scope="col" { "Event" } } }
                    tbody {
                        @for g in games {
                            tr {
                                td { a href=(game_href(0, g.id)) { "Game " (g.id) } }
                                td { (g.white) } td { (g.black) } td { (g.result) }
                                td { @if let Some((id, name)) = &g.event { a href={ "events/" (id) ".html" } { (name) } } }
                            }
                        }
                    }
                } }
            }
        },
    )
}

fn cell_text(c: Cell) -> &'static str {
    c.symbol()
}

fn event_page(e: &SiteEvent) -> String {
    let n = e.table.rows.len();
    page(
        &e.name,
        1,
        html! {
            h1 { (e.name) }
            h2 { "Crosstable" }
            p { a href={ (e.id) ".pgn" } download { "Download all games (PGN)" } }
            div.scroll { table.x id="crosstable" {
                caption { "Points, games finished, Sonneborn–Berger and rank; each cell the result against the player of that number (* not finished)." }
                thead { tr {
                    th scope="col" { "Rank" } th scope="col" { "No." } th scope="col" { "Player" }
                    @for i in 1..=n { th scope="col" { (i) } }
                    th scope="col" { "Points" } th scope="col" { "Games" } th scope="col" { "SB" }
                } }
                tbody {
                    @for (i, row) in e.table.rows.iter().enumerate() {
                        tr data-seat=(row.seat) {
                            td.rank { (row.rank.to_string()) }
                            td { (i + 1) }
                            th scope="row" { (e.names.get(row.seat).map_or("", String::as_str)) }
                            @for (j, cells) in row.cells.iter().enumerate() {
                                td {
                                    @if j == i { "×" }
                                    @else {
                                        @for (k, c) in cells.iter().enumerate() {
                                            @if k > 0 { " " }
                                            @if let Some(g) = game_between(e, row.seat, e.table.rows[j].seat, k) {
                                                a href=(game_href(1, g)) aria-label={ "game " (g) } { (cell_text(*c)) }
                                            } @else { (cell_text(*c)) }
                                        }
                                    }
                                }
                            }
                            td.points { (row.points.to_string()) }
                            td.played { (row.played) }
                            td.sb { (row.sb.to_string()) }
                        }
                    }
                }
            } }
            h2 { "Games" }
            ul {
                @for g in &e.games {
                    li { a href=(game_href(1, g.id)) { "Game " (g.id) } " " (g.outcome.code()) }
                }
            }
        },
    )
}

/// The `k`-th game between seats `a` and `b` in the event's order.
fn game_between(e: &SiteEvent, a: usize, b: usize, k: usize) -> Option<i64> {
    let email = |s: usize| {
        e.table
            .rows
            .iter()
            .find(|r| r.seat == s)
            .map(|r| &r.player.email)
    };
    let (ea, eb) = (email(a)?, email(b)?);
    e.games
        .iter()
        .filter(|g| (&g.white == ea && &g.black == eb) || (&g.white == eb && &g.black == ea))
        .nth(k)
        .map(|g| g.id)
}

fn game_title(g: &SiteGame<'_>) -> String {
    format!("Game {}: {} – {}", g.id, g.white, g.black)
}

fn header(g: &SiteGame<'_>, depth: usize) -> Markup {
    html! {
        h1 { (game_title(g)) }
        p {
            "White " (g.white) ", Black " (g.black) ". Result: " span.result { (g.result) } "."
            @if let Some((id, name)) = &g.event {
                " Event: " a href={ ("../".repeat(depth)) "events/" (id) ".html" } { (name) } "."
            }
        }
    }
}

fn board_figure(g: &SiteGame<'_>, ply: usize) -> Markup {
    let pos = g
        .record
        .position_after(ply)
        .unwrap_or_else(|| g.record.position().clone());
    let last = if ply == 0 {
        None
    } else {
        g.record
            .plies()
            .get(ply - 1)
            .map(|p| (p.iccf.from.square(), p.iccf.to.square()))
    };
    let label = if ply == 0 {
        "The board at the start".to_owned()
    } else {
        let p = &g.record.plies()[ply - 1];
        format!(
            "The board after {} {} ({})",
            MoveNumberText(g.record.number_of_ply(ply - 1)),
            p.iccf,
            p.san
        )
    };
    html! {
        figure role="img" aria-label=(label) style="margin:0.5rem 0" {
            div.scroll.board { (board(&pos, last, Color::White)) }
            figcaption { (label) }
        }
    }
}

/// The record, each move a link to the page of the position after it.
fn record_links(g: &SiteGame<'_>, from_position_page: bool, current: Option<usize>) -> Markup {
    let prefix = if from_position_page {
        String::new()
    } else {
        format!("{}/", g.id)
    };
    let plies = g.record.plies();
    html! {
        div.scroll { table {
            caption {
                "The record in ICCF numeric notation, with SAN"
                @if g.clock.is_some() { ", and the days each move was charged" }
            }
            thead { tr { th scope="col" { "Move" } th scope="col" { "White" } th scope="col" { "Black" } } }
            tbody {
                @for (number, white, black) in record_rows(g.record) {
                    tr {
                        th scope="row" { (number) }
                        @for side in [white, black] {
                            td {
                                @if let Some(i) = side {
                                    @let p = &plies[i];
                                    @let href = if from_position_page { format!("{}.html", i + 1) } else { format!("{prefix}{}.html", i + 1) };
                                    a href=(href) class=[(current == Some(i + 1)).then_some("cur")] {
                                        (p.iccf.to_string()) " (" (localize(&p.san, Lang::En)) ")"
                                    }
                                    @if let Some(d) = g.clock.as_ref().and_then(|c| c.charges.get(i)) {
                                        " " abbr.days title="days charged for this move" { (d) "d" }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        } }
    }
}

/// Rows of the record: the move number text, White's ply index, Black's.
fn record_rows(record: &Record) -> Vec<(String, Option<usize>, Option<usize>)> {
    let mut rows: Vec<(String, Option<usize>, Option<usize>)> = Vec::new();
    let mut turn = record.start().turn();
    let mut number = record.start().fullmoves().get();
    for i in 0..record.plies().len() {
        match turn {
            Color::White => rows.push((number.to_string(), Some(i), None)),
            Color::Black => match rows.last_mut() {
                Some(last) if last.2.is_none() && last.1.is_some() => last.2 = Some(i),
                _ => rows.push((number.to_string(), None, Some(i))),
            },
        }
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    rows
}

fn game_page(g: &SiteGame<'_>) -> String {
    let plies = g.record.plies().len();
    page(
        &game_title(g),
        1,
        html! {
            (header(g, 1))
            h2 { "Position after the last move" }
            (board_figure(g, plies))
            @if let Some(c) = &g.clock {
                h2 { "Clocks" }
                p {
                    "Time control " (c.control) " (" (control_words(&c.control)) "). "
                    @if c.to_move.is_some() { "The clocks as of " (c.as_of) "; they keep running until the next move." }
                    @else { "The clocks when the game ended (" (c.as_of) ")." }
                }
                (clock_table(g, &c.now, c.to_move))
            }
            h2 { "Record" }
            @if plies == 0 { p { "No moves yet." } }
            @else { (record_links(g, false, None)) }
            p {
                a href=(position_href(g.id, 0)) { "Step through the game from the start" }
                " · "
                a href={ (g.id) ".pgn" } download { "Download (PGN)" }
            }
        },
    )
}

fn position_page(g: &SiteGame<'_>, ply: usize) -> String {
    let plies = g.record.plies().len();
    page(
        &format!("{} – position {ply}", game_title(g)),
        2,
        html! {
            (header(g, 2))
            h2 { "Position " (ply) " of " (plies) }
            nav aria-label="moves" {
                @if ply > 0 { a href="0.html" { "Start" } " · " a href={ (ply - 1) ".html" } rel="prev" { "Previous move" } }
                @else { "Start" }
                " · "
                @if ply < plies { a href={ (ply + 1) ".html" } rel="next" { "Next move" } " · " a href={ (plies) ".html" } { "Last" } }
                @else { "Last" }
                " · " a href={ "../" (g.id) ".html" } { "The game" }
            }
            (board_figure(g, ply))
            @if let Some(c) = &g.clock && let Some(sides) = c.after.get(ply) {
                h3 { @if ply == 0 { "Clocks at the start" } @else { "Clocks as this move arrived" } " (time control " (c.control) ")" }
                (clock_table(g, sides, None))
            }
            @if plies > 0 { (record_links(g, true, Some(ply))) }
        },
    )
}

/// `10/50` -> "10 moves in 50 days"; `30+3` -> "30 days, plus 3 a move".
fn control_words(control: &str) -> String {
    match control.parse::<crate::clock::TimeControl>() {
        Ok(crate::clock::TimeControl::Moves { moves, days }) => {
            format!("{moves} moves in {days} days, unused days carried forward")
        }
        Ok(crate::clock::TimeControl::Increment {
            base_days,
            increment_days,
        }) => format!("{base_days} days, plus {increment_days} for each move made"),
        _ => "days per move".to_owned(),
    }
}

fn days(n: u32) -> String {
    if n == 1 {
        "1 day".to_owned()
    } else {
        format!("{n} days")
    }
}

/// "37 days left for moves 11–20", or "37 days left" without a move control.
fn days_left_text(c: &SideClock) -> String {
    match (c.days_left, c.control_move) {
        (Some(left), Some(to)) => format!("{} left for moves {}–{to}", days(left), c.next_move),
        (Some(left), None) => format!("{} left", days(left)),
        (None, _) => "no limit".to_owned(),
    }
}

/// Both players' clocks: days used, days left to the next control, who is
/// on move and who is on leave (never when the leave ends).
fn clock_table(g: &SiteGame<'_>, sides: &ByColor<SideClock>, to_move: Option<Color>) -> Markup {
    html! {
        div.scroll { table.clocks {
            thead { tr {
                th scope="col" { "Player" } th scope="col" { "Days used" }
                th scope="col" { "Days left" } th scope="col" { "Now" }
            } }
            tbody {
                @for (side, name) in [(Color::White, &g.white), (Color::Black, &g.black)] {
                    @let c = &sides[side];
                    tr data-side=(if side == Color::White { "white" } else { "black" }) {
                        th scope="row" { (if side == Color::White { "White" } else { "Black" }) " " (name) }
                        td.used { (c.days_used) }
                        td.left { (days_left_text(c)) }
                        td.state {
                            @if to_move == Some(side) {
                                "to move (" (days(c.thinking_days)) " on this move)"
                                @if c.on_leave { "; " }
                            }
                            @if c.on_leave { "on leave" }
                        }
                    }
                }
            }
        } }
    }
}

fn game_pgn(g: &SiteGame<'_>) -> String {
    pgn(
        g.record,
        &PgnHeaders {
            event: g
                .event
                .as_ref()
                .map_or_else(|| "wildt game".to_owned(), |(_, n)| n.clone()),
            site: "wildt".to_owned(),
            date: g.date.clone(),
            white: g.white.clone(),
            black: g.black.clone(),
            game_id: g.id,
            time_control: g.clock.as_ref().map(|c| c.control.clone()),
            days: g
                .clock
                .as_ref()
                .map(|c| c.charges.clone())
                .unwrap_or_default(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::Command;
    use crate::referee::judge;

    fn played(fen: Option<&str>, moves: &[&str]) -> Record {
        let mut r = Record::new(fen).unwrap();
        for m in moves {
            let v = judge(&r, r.turn(), &Command::single(m.parse().unwrap()));
            r.apply(&v);
        }
        assert_eq!(r.plies().len(), moves.len());
        r
    }

    fn game(record: &Record) -> SiteGame<'_> {
        SiteGame {
            id: 5,
            white: "Anna".into(),
            black: "b***s".into(),
            event: None,
            record,
            result: "*".into(),
            date: "2027.01.01".into(),
            clock: None,
        }
    }

    fn file<'a>(files: &'a [SiteFile], path: &str) -> &'a str {
        let f = files
            .iter()
            .find(|f| f.path == path)
            .unwrap_or_else(|| panic!("{path}"));
        std::str::from_utf8(&f.bytes).unwrap()
    }

    #[test]
    fn position_pages_step_forward_and_back_and_stop_at_the_ends() {
        let r = played(None, &["5254", "5755"]);
        let files = render(&[], &[game(&r)]);
        let start = file(&files, "games/5/0.html");
        assert!(start.contains(r#"href="1.html" rel="next""#), "{start}");
        assert!(!start.contains(r#"rel="prev""#));
        let middle = file(&files, "games/5/1.html");
        assert!(middle.contains(r#"href="0.html" rel="prev""#));
        assert!(middle.contains(r#"href="2.html" rel="next""#));
        let end = file(&files, "games/5/2.html");
        assert!(end.contains(r#"href="1.html" rel="prev""#));
        assert!(!end.contains(r#"rel="next""#));
        assert!(files.iter().all(|f| f.path != "games/5/3.html"));
        // The game page links each move to its position.
        let page = file(&files, "games/5.html");
        assert!(page.contains(r#"href="5/1.html""#) && page.contains(r#"href="5/2.html""#));
    }

    fn side(used: u32, left: u32, next: u32, on_leave: bool) -> SideClock {
        SideClock {
            days_used: used,
            thinking_days: 0,
            days_left: Some(left),
            next_move: next,
            control_move: Some(20),
            on_leave,
        }
    }

    #[test]
    fn a_timed_game_shows_days_left_to_the_next_control_and_its_pgn_the_control_and_days() {
        let r = played(None, &["5254", "5755"]);
        let mut g = game(&r);
        let mut white = side(13, 37, 11, false);
        white.thinking_days = 3;
        g.clock = Some(SiteClock {
            control: "10/50".into(),
            as_of: "2027-02-01 10:00 UTC".into(),
            to_move: Some(Color::White),
            now: ByColor {
                white,
                black: side(12, 1, 11, true),
            },
            charges: vec![2, 4],
            after: vec![
                ByColor {
                    white: side(0, 50, 1, false),
                    black: side(0, 50, 1, false),
                };
                3
            ],
        });
        let files = render(&[], &[g]);
        let page = file(&files, "games/5.html");
        assert!(
            page.contains("Time control 10/50 (10 moves in 50 days"),
            "{page}"
        );
        assert!(page.contains("37 days left for moves 11–20"), "{page}");
        assert!(page.contains("to move (3 days on this move)"), "{page}");
        assert!(page.contains("1 day left for moves 11–20"), "{page}");
        assert!(page.contains("on leave"), "{page}");
        assert!(
            page.contains(">2d</abbr>") && page.contains(">4d</abbr>"),
            "{page}"
        );
        let position = file(&files, "games/5/2.html");
        assert!(
            position.contains("Clocks as this move arrived"),
            "{position}"
        );
        assert!(
            position.contains("50 days left for moves 1–20"),
            "{position}"
        );
        let pgn = file(&files, "games/5.pgn");
        assert!(pgn.contains("[TimeControl \"10/50\"]"), "{pgn}");
        assert!(pgn.contains("1. e4 {5254 2d} e5 {5755 4d}"), "{pgn}");
    }

    #[test]
    fn an_untimed_game_has_no_clocks_and_no_time_control_tag() {
        let r = played(None, &["5254"]);
        let files = render(&[], &[game(&r)]);
        assert!(!file(&files, "games/5.html").contains("Clocks"));
        assert!(!file(&files, "games/5/1.html").contains("Clocks"));
        assert!(!file(&files, "games/5.pgn").contains("TimeControl"));
    }

    #[test]
    fn a_record_starting_with_black_has_its_first_move_in_blacks_column() {
        let r = played(
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
            &["5755", "7163"],
        );
        assert_eq!(
            record_rows(&r),
            vec![
                ("1".to_owned(), None, Some(0)),
                ("2".to_owned(), Some(1), None)
            ]
        );
    }
}
