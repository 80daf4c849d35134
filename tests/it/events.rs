//! Sections through the real binary (issue 20): `wildt event new` pairs a
//! section and mails each player their games, `event withdraw` rules both
//! ways, and the public site — written by `wildt publish` and refreshed by
//! `wildt serve --once` after a move — shows the games, the crosstable of
//! `event show --json`, and never an address or a key. [IO: processes, temp
//! files]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::cli::{json_of, temp_config, wildt};
use crate::support::club::mail;
use crate::support::fixtures::body_text;

/// A club with `[publish] path` set, in a fresh folder.
struct Section {
    dir: tempfile::TempDir,
    cfg: PathBuf,
}

impl Section {
    fn new() -> Section {
        let dir = tempfile::tempdir().unwrap();
        let cfg = temp_config(dir.path());
        let mut text = std::fs::read_to_string(&cfg).unwrap();
        text.push_str(&format!(
            "\n[publish]\npath = \"{}\"\n",
            dir.path().join("site").display()
        ));
        std::fs::write(&cfg, text).unwrap();
        Section { dir, cfg }
    }

    fn site(&self) -> PathBuf {
        self.dir.path().join("site")
    }

    fn run(&self, args: &[&str]) -> Value {
        json_of(&wildt(&self.cfg, args))
    }

    /// Every mail sent so far: `serve --once` flushes the outbox table to
    /// the file outbox first.
    fn outbox(&self) -> Vec<String> {
        std::fs::create_dir_all(self.dir.path().join("mail/new")).unwrap();
        let out = wildt(&self.cfg, &["serve", "--once"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.dir.path().join("outbox"))
            .map(|rd| rd.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        files.sort();
        files
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "eml"))
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect()
    }

    fn deliver(&self, name: &str, raw: &str) {
        let new = self.dir.path().join("mail/new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(new.join(name), raw).unwrap();
    }
}

fn emails(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!("p{i}.player@club{i}.example"))
        .collect()
}

/// `event new` for `n` players: the created games' (white, black) pairs.
fn pairs_of(v: &Value) -> Vec<(String, String)> {
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["white"].as_str().unwrap().to_owned(),
                g["black"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn event_new_pairs_every_size_from_3_to_16_once_and_double_twice_with_colours_swapped() {
    for n in 3..=16 {
        for double in [false, true] {
            let s = Section::new();
            let players = emails(n).join(",");
            let mut args = vec!["event", "new", "Test", "--players", &players, "--json"];
            if double {
                args.push("--double");
            }
            let pairs = pairs_of(&s.run(&args));
            let per_pair = if double { 2 } else { 1 };
            assert_eq!(
                pairs.len(),
                n * (n - 1) / 2 * per_pair,
                "n={n} double={double}"
            );
            let mut seen: BTreeMap<(String, String), Vec<(String, String)>> = BTreeMap::new();
            for (w, b) in &pairs {
                assert_ne!(w, b);
                let key = if w < b {
                    (w.clone(), b.clone())
                } else {
                    (b.clone(), w.clone())
                };
                seen.entry(key).or_default().push((w.clone(), b.clone()));
            }
            assert_eq!(seen.len(), n * (n - 1) / 2, "every pair meets, n={n}");
            for (pair, games) in &seen {
                assert_eq!(games.len(), per_pair, "{pair:?} n={n}");
                if double {
                    assert_eq!(games[0].0, games[1].1, "colours swapped: {games:?}");
                    assert_eq!(games[0].1, games[1].0, "colours swapped: {games:?}");
                }
            }
            for e in emails(n) {
                let whites = pairs.iter().filter(|(w, _)| *w == e).count();
                let blacks = pairs.iter().filter(|(_, b)| *b == e).count();
                assert!(
                    whites.abs_diff(blacks) <= 1,
                    "{e}: {whites} white, {blacks} black (n={n})"
                );
            }
        }
    }
}

#[test]
fn event_new_mails_each_player_one_summary_of_all_their_games_and_each_game_its_welcome() {
    let s = Section::new();
    let v = s.run(&[
        "event",
        "new",
        "Spring Cup",
        "--players",
        "Anna Smith <anna@x.example>, ben@y.example, Cy <cy@z.example>, dee@w.example",
        "--json",
    ]);
    assert_eq!(v["games"].as_array().unwrap().len(), 6);
    let mails = s.outbox();
    // Two welcomes per game plus one summary per player.
    assert_eq!(mails.len(), 6 * 2 + 4, "{}", mails.len());
    let summaries: Vec<&String> = mails
        .iter()
        .filter(|m| m.contains("Spring Cup: your games"))
        .collect();
    assert_eq!(summaries.len(), 4);
    let anna = summaries
        .iter()
        .find(|m| m.contains("To: anna@x.example"))
        .expect("Anna's summary");
    for g in v["games"].as_array().unwrap() {
        let id = g["id"].as_i64().unwrap();
        let plays = g["white"] == "anna@x.example" || g["black"] == "anna@x.example";
        assert_eq!(
            body_text(anna.as_bytes()).contains(&format!("Game {id}: you play")),
            plays,
            "game {id} in Anna's summary: {anna}"
        );
    }
    let body = body_text(anna.as_bytes());
    assert!(body.contains("against Cy <cy@z.example>"), "{body}");
}

fn results(s: &Section, id: &str) -> Value {
    s.run(&["event", "show", id, "--json"])
}

#[test]
fn a_withdrawal_scores_forfeits_or_annuls_under_half_and_tells_the_opponents() {
    for annul in [false, true] {
        let s = Section::new();
        let v = s.run(&[
            "event",
            "new",
            "Cup",
            "--players",
            "a@x.example,b@x.example,c@x.example,d@x.example",
            "--json",
        ]);
        let event = v["id"].as_i64().unwrap().to_string();
        let before: BTreeSet<String> = s.outbox().into_iter().collect();
        let mut args = vec!["event", "withdraw", &event, "b@x.example", "--json"];
        if annul {
            args.push("--annul-under-half");
        }
        let w = s.run(&args);
        assert_eq!(w["ruling"], if annul { "annulled" } else { "forfeit" });
        assert_eq!(w["games"].as_array().unwrap().len(), 3);
        let notices: Vec<String> = s
            .outbox()
            .into_iter()
            .filter(|m| !before.contains(m))
            .collect();
        assert_eq!(notices.len(), 3, "one notice per opponent");
        for to in ["a@x.example", "c@x.example", "d@x.example"] {
            let n = notices
                .iter()
                .find(|m| m.contains(&format!("To: {to}")))
                .unwrap_or_else(|| panic!("no notice to {to}"));
            let expected = if annul {
                "counts for neither side"
            } else {
                "win for you by forfeit"
            };
            let body = body_text(n.as_bytes());
            assert!(body.contains(expected), "{body}");
        }
        let table = results(&s, &event);
        for g in table["games"].as_array().unwrap() {
            let has_b = g["white"] == "b@x.example" || g["black"] == "b@x.example";
            let r = g["result"].as_str().unwrap();
            if !has_b {
                assert_eq!(r, "*");
            } else if annul {
                assert_eq!(r, "annulled");
            } else {
                let expected = if g["white"] == "b@x.example" {
                    "-+"
                } else {
                    "+-"
                };
                assert_eq!(r, expected);
            }
        }
        let points: BTreeMap<String, f64> = table["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["email"].as_str().unwrap().to_owned(),
                    p["points"].as_f64().unwrap(),
                )
            })
            .collect();
        let expected_a = if annul { 0.0 } else { 1.0 };
        assert_eq!(points["a@x.example"], expected_a);
        assert_eq!(points["b@x.example"], 0.0);
        // A ruled game is over: the game shows it finished.
        let g = table["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["white"] == "b@x.example" || g["black"] == "b@x.example")
            .unwrap()["id"]
            .as_i64()
            .unwrap();
        let shown = s.run(&["game", "show", &g.to_string(), "--json"]);
        assert_eq!(shown["status"], "finished");
        assert_eq!(
            shown["termination"],
            if annul { "annulled" } else { "forfeit" }
        );
        // Twice is refused.
        let again = wildt(&s.cfg, &["event", "withdraw", &event, "b@x.example"]);
        assert!(!again.status.success());
    }
}

/// Every file under `dir`, relative path -> bytes.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    out
}

/// The targets of `href="…"` and `src="…"` in a page.
fn links(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["href=\"", "src=\""] {
        let mut rest = html;
        while let Some(i) = rest.find(attr) {
            rest = &rest[i + attr.len()..];
            let end = rest.find('"').unwrap();
            out.push(rest[..end].to_owned());
            rest = &rest[end..];
        }
    }
    out
}

/// Text of the `<td class="NAME">` cells of the crosstable's rows, by the
/// row's player name.
fn table_column(html: &str, class: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for row in html.split("<tr data-seat=").skip(1) {
        let name = between(row, "<th scope=\"row\">", "</th>");
        let value = between(row, &format!("<td class=\"{class}\">"), "</td>");
        out.insert(name.to_owned(), value.to_owned());
    }
    out
}

fn between<'a>(s: &'a str, start: &str, end: &str) -> &'a str {
    let i = s.find(start).unwrap_or_else(|| panic!("no {start}")) + start.len();
    let j = s[i..].find(end).unwrap() + i;
    &s[i..j]
}

/// A section with a move played through the daemon: the site it wrote.
fn played_section() -> (Section, Value, Vec<String>) {
    let s = Section::new();
    let v = s.run(&[
        "event",
        "new",
        "Autumn Open",
        "--players",
        "Anna Smith <anna@x.example>, ben.jones@y.example, Cy <cy@z.example>",
        "--json",
    ]);
    let first = v["games"][0]["id"].as_i64().unwrap();
    let shown = s.run(&["game", "show", &first.to_string(), "--json"]);
    let white = shown["white"]["email"].as_str().unwrap().to_owned();
    let address = shown["white"]["address"].as_str().unwrap().to_owned();
    s.deliver("1.eml", &mail(&white, &address, "m1@x.example", "1. 5254"));
    let summary = String::from_utf8(wildt(&s.cfg, &["serve", "--once"]).stdout).unwrap();
    assert!(summary.starts_with("1 messages"), "{summary}");
    // Every address and key of the club.
    let mut secrets = vec![
        "anna@x.example".to_owned(),
        "ben.jones@y.example".to_owned(),
        "cy@z.example".to_owned(),
        "ben.jones".to_owned(),
    ];
    for g in v["games"].as_array().unwrap() {
        let shown = s.run(&["game", "show", &g["id"].to_string(), "--json"]);
        for seat in ["white", "black"] {
            let a = shown[seat]["address"].as_str().unwrap();
            secrets.push(a.to_owned());
            // The key alone: the part after `+ID-` before `@`.
            let key = a.split('@').next().unwrap().rsplit('-').next().unwrap();
            assert!(key.len() >= 8, "{a}");
            secrets.push(key.to_owned());
        }
    }
    (s, v, secrets)
}

#[test]
fn the_daemon_republishes_the_site_after_a_move_without_any_address_or_key() {
    let (s, v, secrets) = played_section();
    let site = s.site();
    let files = tree(&site);
    let first = v["games"][0]["id"].as_i64().unwrap();
    let game_page =
        String::from_utf8(files[&PathBuf::from(format!("games/{first}.html"))].clone()).unwrap();
    assert!(game_page.contains("5254"), "the move is on the game page");
    assert!(files.contains_key(&PathBuf::from(format!("games/{first}/1.html"))));
    let pgn =
        String::from_utf8(files[&PathBuf::from(format!("games/{first}.pgn"))].clone()).unwrap();
    assert!(pgn.contains("1. e4"), "{pgn}");
    assert!(files.contains_key(&PathBuf::from("events/1.pgn")));
    for (path, bytes) in &files {
        let text = String::from_utf8_lossy(bytes).to_lowercase();
        for secret in &secrets {
            assert!(
                !text.contains(&secret.to_lowercase()),
                "{} publishes {secret}",
                path.display()
            );
        }
        assert!(!text.contains('@'), "{} holds an @", path.display());
    }
}

#[test]
fn every_link_of_the_site_resolves_inside_it_and_the_crosstable_matches_event_show() {
    let (s, v, _) = played_section();
    let site = s.site();
    let files = tree(&site);
    let mut checked = 0;
    for (path, bytes) in files
        .iter()
        .filter(|(p, _)| p.extension().is_some_and(|e| e == "html"))
    {
        let html = String::from_utf8(bytes.clone()).unwrap();
        assert!(html.contains("<h1>"), "{} has a heading", path.display());
        assert!(html.contains("name=\"viewport\""), "{}", path.display());
        for link in links(&html) {
            assert!(!link.contains("//"), "{}: external {link}", path.display());
            let target = path.parent().unwrap().join(&link);
            let mut norm = PathBuf::new();
            for c in target.components() {
                match c {
                    std::path::Component::ParentDir => {
                        assert!(norm.pop(), "{link} leaves the tree")
                    }
                    std::path::Component::CurDir => {}
                    other => norm.push(other),
                }
            }
            assert!(
                files.contains_key(&norm),
                "{}: {link} -> {} missing",
                path.display(),
                norm.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} links");
    let event = v["id"].as_i64().unwrap();
    let shown = s.run(&["event", "show", &event.to_string(), "--json"]);
    let page =
        String::from_utf8(files[&PathBuf::from(format!("events/{event}.html"))].clone()).unwrap();
    let points = table_column(&page, "points");
    let played = table_column(&page, "played");
    let sb = table_column(&page, "sb");
    let rank = table_column(&page, "rank");
    let names: BTreeSet<&String> = points.keys().collect();
    assert_eq!(names.len(), 3, "{names:?}");
    for p in shown["players"].as_array().unwrap() {
        let name = match p["name"].as_str() {
            Some(n) => n.to_owned(),
            None => {
                let email = p["email"].as_str().unwrap();
                wildt::event::public_name(&wildt::event::parse_player(email).unwrap())
            }
        };
        assert_eq!(
            points[&name].parse::<f64>().unwrap(),
            p["points"].as_f64().unwrap(),
            "{name}"
        );
        assert_eq!(
            played[&name].parse::<u64>().unwrap(),
            p["played"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(
            sb[&name].parse::<f64>().unwrap(),
            p["sb"].as_f64().unwrap(),
            "{name}"
        );
        assert_eq!(&rank[&name], p["rank"].as_str().unwrap(), "{name}");
    }
}
